"""The play checks over toy games whose answers are known: a game that ends, one with an
endless position, coverage that misses an item, and balance figures on both sides of a promise."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from pnp.content.loader import LoadedGame
from pnp.engines.base import Declaration, Outcome, RandomPolicy, Table
from pnp.engines.record import read_record
from pnp.engines.search import HalvingSearchPolicy, SearchPolicy
from pnp.engines.stats import Rate
from pnp.errors import IllegalActionError, Location, PnpError
from pnp.model.common import Balance, Band, Ladder, Spread, StrongTables
from pnp.registry import Game, SearchSettings
from pnp.validate.checks import Findings
from pnp.validate.play import (
    SCREEN_CONFIRM,
    SCREEN_GAMES,
    GameCrash,
    Played,
    balance_runs,
    check_balance,
    check_play,
    factor_rates,
    find_ending,
    game_tables,
    head_to_head,
    judge_balance,
    looks,
    make_policy,
    play_many,
    play_seed,
    screen_balance,
    search_request,
    strong_games_at_most,
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


class Stumbler:
    """Plays nim's first legal move, except now and then, where it fails as a buggy engine
    deep in a long run does."""

    def choose(self, rules: NimRules, state: object, rng: random.Random) -> object:
        if rng.random() < 0.04:
            raise ValueError("tuple.index(x): x not in tuple")
        return rules.legal_actions(state)[0]  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_that_fails_names_the_seed_that_replays_it(workers: int) -> None:
    game = replace(nim_game(), policies={"sensible": RandomPolicy, "stumbler": Stumbler})
    table = game.play_tables(object())[0]  # type: ignore[misc]
    seats = ["stumbler", "sensible"]
    with pytest.raises(GameCrash) as crash:
        play_many(game, table, seats, 40, seed=5, workers=workers)
    message = str(crash.value)
    assert message.startswith("ValueError: tuple.index(x): x not in tuple, in nim table 'nim-10'")
    assert "seats stumbler, sensible" in message
    seed = int(message.rsplit("seed ", 1)[1])
    with pytest.raises(GameCrash, match=f"seed {seed}$"):
        play_seed(game, table, seats, seed)


def test_the_strong_player_beats_a_random_one_and_the_duel_stops_once_decided() -> None:
    game = nim_game()
    table = game.play_tables(object())[0]  # type: ignore[misc]
    stopped = head_to_head(game, table, 100, seed=2, workers=1, sequential=True)
    # Search against random play at nim is decided within the first look's 25 games.
    assert stopped.verdict == "stronger"
    assert stopped.games == 25
    assert stopped.challenger.value > stopped.baseline.value
    assert stopped.p_value < stopped.threshold == 0.05 / 3  # looks at 25, 50 and 100


def test_a_duel_between_equals_stays_undecided_up_to_its_cap() -> None:
    game = nim_game()
    table = game.play_tables(object())[0]  # type: ignore[misc]
    duel = head_to_head(game, table, 50, seed=3, workers=1, challenger="random", sequential=True)
    assert duel.games == 50  # played to the cap: neither side was shown better
    assert duel.verdict == "undecided"
    assert "undecided" in str(duel)


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
    by_count = replace(game, search=SearchSettings(method="halving", iterations_at=((2, 5),)))
    own = make_policy(by_count, "strong")
    assert isinstance(own, HalvingSearchPolicy) and own.iterations_at == {2: 5}
    asked = make_policy(by_count, "strong:9")  # a budget asked for holds at every count
    assert isinstance(asked, HalvingSearchPolicy) and asked.iterations_at == {}
    for bad in ("strong:0", "strong:x", "strong:4:0", "strong:1:2:3"):
        with pytest.raises(PnpError, match="expected 'strong'"):
            make_policy(game, bad)


# -- a coin game whose fairness a test sets: promises held by the screen and in stages ------


@dataclass(frozen=True)
class Coin:
    """Two heroes drawn from a roster at the start, then one coin decides who wins."""

    heroes: tuple[str, ...]
    winner: int | None


class CoinRules:
    """Two seats, each with a hero drawn at the start; a coin (a chance step) decides: the
    seat holding ``favourite`` wins with probability ``edge``, any other pairing is fair."""

    num_players = 2
    ROSTER = ("ash", "birch", "cedar", "elm")

    def __init__(self, favourite: str = "", edge: float = 0.5) -> None:
        self.favourite = favourite
        self.edge = edge

    def initial_state(self, rng: random.Random) -> Coin:
        return Coin(tuple(rng.sample(self.ROSTER, 2)), None)

    def current_player(self, state: Coin) -> int | None:
        return None

    def is_chance(self, state: Coin) -> bool:
        return state.winner is None

    def legal_actions(self, state: Coin) -> list[int]:
        return []

    def chance_outcomes(self, state: Coin) -> list[tuple[int, float]]:
        return []

    def sample_chance(self, state: Coin, rng: random.Random) -> int:
        first = 0.5
        if self.favourite in state.heroes:
            first = self.edge if state.heroes.index(self.favourite) == 0 else 1 - self.edge
        return 0 if rng.random() < first else 1

    def apply(self, state: Coin, action: int) -> Coin:
        return Coin(state.heroes, action)

    def is_terminal(self, state: Coin) -> bool:
        return state.winner is not None

    def outcome(self, state: Coin) -> Outcome:
        assert state.winner is not None
        return Outcome(frozenset({state.winner}), End.HOME)

    def turns(self, state: Coin) -> int:
        return 1

    def notation(self, state: Coin) -> str:
        return f"{','.join(state.heroes)} {state.winner}"

    def from_notation(self, text: str) -> Coin:
        heroes, winner = text.split()
        return Coin(tuple(heroes.split(",")), None if winner == "None" else int(winner))

    def parse_action(self, text: str) -> int:
        return int(text)

    def declares(self) -> Declaration:
        return Declaration("coin", frozenset(), frozenset(), frozenset())


HERO_PROMISE = Spread("hero", 0.1, fair=0.5, where=Location("content/coin/balance.yaml", 7, 7))


def coin_game(favourite: str = "", edge: float = 0.5, tables: int = 2) -> Game:
    """A game of ``tables`` coin tables (``t0``, ``t1``, …): ``t0`` favours ``favourite``,
    the others are fair; its promise: every hero wins half its games, give or take 10 points."""

    def play_tables(model: object) -> list[Table]:
        return [
            Table(f"t{index}", CoinRules(favourite if index == 0 else "", edge), max_steps=5)
            for index in range(tables)
        ]

    return Game(
        slug="coin",
        model=object,
        rules=CoinRules,
        policies={"sensible": RandomPolicy},
        play_tables=play_tables,
        seat_factors=lambda rules, state: {"hero": state.heroes},
    )


def test_two_seats_that_win_together_are_one_trial_not_two() -> None:
    # Four seats, two teams; the first team wins 30 of 50 games. Counted seat by seat, its
    # 60 % of 100 "trials" would look twice as sure as 50 games can be.
    played = [
        Played(
            seed=index,
            winners=frozenset({0, 1}) if index < 30 else frozenset({2, 3}),
            scores=(0.0,) * 4,
            turns=1,
            steps=1,
            capped=False,
            seat_factors=(("side", ("first", "first", "second", "second")),),
        )
        for index in range(50)
    ]
    side = factor_rates(played, "side", 4)["first"]
    assert (side.successes, side.trials, side.value) == (60, 100, 0.6)
    assert side.interval == pytest.approx(Rate(30, 50).interval)
    assert side.interval[0] < Rate(60, 100).interval[0]


def test_the_screen_fails_a_promise_broken_beyond_doubt_on_the_games_validate_plays(
    findings: Findings,
) -> None:
    game = coin_game("ash", edge=0.97)
    played = {
        table.name: play_many(game, table, ["sensible"] * 2, SCREEN_GAMES, seed=1, workers=1)
        for table in game_tables(game, object())
    }
    balance = Balance(policy="sensible", games=300, spreads=(HERO_PROMISE,))
    screen = screen_balance(findings, game, object(), balance, played, seed=1, workers=1)
    errors = [p for p in findings.problems if p.severity == "error"]
    assert [p.location for p in errors] == [HERO_PROMISE.where]
    assert errors[0].message.startswith("table 't0': hero ash wins: ")
    assert f"on the {SCREEN_CONFIRM} games a table pnp validate plays" in errors[0].message
    # Only the suspect table played on; the fair one was judged on its first games.
    assert screen.games == {"t0": SCREEN_CONFIRM, "t1": SCREEN_GAMES}
    assert screen.broken == 1


def test_the_screen_says_nothing_of_a_fair_game_it_cannot_judge_on_few_games(
    findings: Findings,
) -> None:
    game = coin_game(tables=3)
    played = {
        table.name: play_many(game, table, ["sensible"] * 2, SCREEN_GAMES, seed=3, workers=1)
        for table in game_tables(game, object())
    }
    balance = Balance(policy="sensible", games=300, spreads=(HERO_PROMISE,))
    screen = screen_balance(findings, game, object(), balance, played, seed=3, workers=1)
    assert findings.problems == []
    # Some hero's 30-game figure lands outside 40-60 % by chance: counted, not reported.
    assert screen.unsure > 0
    assert "too few games to tell" in screen.lines()[0]


def test_a_sequential_run_stops_a_table_once_its_promises_are_decided() -> None:
    game = coin_game("ash", edge=1.0, tables=2)
    # Every hero wins 5-95 % of its games: a fair table shows it within a few dozen games;
    # ash, who always wins at t0, is shown above 95 % beyond doubt (each of the six looks
    # judged at 1 - 5 %/6) only after a few hundred.
    promise = Spread("hero", 0.45, fair=0.5)
    balance = Balance(policy="sensible", games=800, spreads=(promise,))
    runs, _ = balance_runs(game, object(), balance, seed=1, sequential=True, workers=1)
    full, _ = balance_runs(game, object(), balance, seed=1, workers=1)
    assert len(runs["t1"]) < len(runs["t0"]) < 800
    assert {len(games) for games in runs.values()} <= set(looks(800))
    findings_t0 = factor_rates(runs["t0"], "hero", 2)["ash"]
    assert findings_t0.interval[0] > 0.95  # broken, and decided: no more games were needed
    # A stopped table's games are the first games of the full run: the same seeds.
    assert runs["t0"] == full["t0"][: len(runs["t0"])]
    assert runs["t1"] == full["t1"][: len(runs["t1"])]


def test_a_balance_run_on_two_processes_plays_the_same_games_as_on_one() -> None:
    game = coin_game("ash", edge=0.8, tables=2)
    balance = Balance(policy="sensible", games=120, spreads=(HERO_PROMISE,))
    one, _ = balance_runs(game, object(), balance, seed=4, sequential=True, workers=1)
    two, _ = balance_runs(game, object(), balance, seed=4, sequential=True, workers=2)
    assert one == two


STRONG_AT = Location("content/coin/balance.yaml", 12, 12)


def test_a_strong_run_plays_the_strong_player_on_the_tables_content_names(
    findings: Findings,
) -> None:
    # The promise (35-65 % a hero) needs more than 25 games on a fair table: the strong
    # table stops at its own cap of 25, the others play the sensible policy on.
    promise = Spread("hero", 0.15, fair=0.5)
    strong = StrongTables(("t1",), games=25, where=STRONG_AT)
    balance = Balance(policy="sensible", games=400, spreads=(promise,), strong=strong)
    run = judge_balance(
        findings, coin_game(tables=3), object(), balance, seed=1, policy="strong", workers=1
    )
    # 25 games leave some figure of the strong table outside by its point estimate only.
    assert {p.severity for p in findings.problems} <= {"warning"}
    assert dict(run.policies) == {"t0": "sensible", "t2": "sensible"}
    assert len(run.runs["t1"]) == 25
    assert len(run.runs["t0"]) > 25
    lines = run.lines()
    assert lines[0].startswith(
        "balance: strong on 1 of 3 tables (t1); the other 2 with the sensible"
    )
    assert any(line.startswith("balance t1 (strong, 25 games)") for line in lines)
    assert run.as_json()["tables"]["t0"]["policy"] == "sensible"
    # A run with the promises' own policy plays every table with it, up to the promises' cap.
    plain = judge_balance(findings, coin_game(tables=3), object(), balance, seed=1, workers=1)
    assert plain.policies == {}
    assert len(plain.runs["t1"]) > 25


def test_the_strong_games_a_run_may_play_are_those_of_its_strong_tables() -> None:
    # What decides whether a run is worth compiling: only the strong player's games count.
    strong = StrongTables(("t1",), games=25, where=STRONG_AT)
    some = SimpleNamespace(balance=Balance(policy="sensible", games=400, strong=strong))
    game = coin_game(tables=3)
    assert strong_games_at_most(game, some, "strong", None) == 25
    assert strong_games_at_most(game, some, "strong:8", 10) == 10  # --games for every table
    assert strong_games_at_most(game, some, None, None) == 0  # the promises' own: sensible
    every = SimpleNamespace(balance=Balance(policy="strong", games=200))
    assert strong_games_at_most(game, every, None, None) == 600
    assert strong_games_at_most(game, object(), "strong", None) == 0  # no promises, no run


def test_a_strong_table_that_is_no_table_is_a_located_error(findings: Findings) -> None:
    strong = StrongTables(("t9",), games=25, where=STRONG_AT)
    balance = Balance(policy="sensible", games=50, spreads=(HERO_PROMISE,), strong=strong)
    judge_balance(findings, coin_game(), object(), balance, seed=1, policy="strong", workers=1)
    errors = [p for p in findings.problems if p.severity == "error"]
    assert [p.location for p in errors] == [STRONG_AT]
    assert "unknown table 't9' (tables: t0, t1)" in errors[0].message


def _decisions(rule_z: float, wins_at: list[list[int]], sizes: list[int]) -> tuple[float, float]:
    """How often a run stopping at its first decided look calls a seat that wins exactly at
    its promise's upper edge kept, and how often broken: both are wrong (the truth is on the
    edge, which 95 % must not tell either way more than 2.5 % of the time each)."""
    from pnp.validate.play import Verdict, _rate_figure

    low, high = 1 / 3 - 0.05, 1 / 3 + 0.05
    kept = broken = 0
    for case in wins_at:
        for wins, size in zip(case, sizes, strict=True):
            rate = Rate(wins, size, z=rule_z)
            verdict = _rate_figure(STRONG_AT, "3p", "seat 1 wins", rate, low, high).verdict
            if verdict is not Verdict.OPEN:
                kept += verdict is Verdict.KEPT
                broken += verdict is Verdict.BROKEN
                break
    return kept / len(wins_at), broken / len(wins_at)


def test_a_sequential_run_is_fooled_at_a_promises_edge_no_more_often_than_a_single_look() -> None:
    from pnp.engines.stats import Z95, z_over_looks

    sizes = looks(800)  # 25, 50, ... 800: six looks
    edge = 1 / 3 + 0.05
    rng = random.Random(20261128)
    cases = 1500
    wins_at: list[list[int]] = []
    for _ in range(cases):
        wins, played, case = 0, 0, []
        for size in sizes:
            wins += sum(rng.random() < edge for _ in range(size - played))
            played = size
            case.append(wins)
        wins_at.append(case)
    allowed = 0.025 + 3 * (0.025 * 0.975 / cases) ** 0.5
    kept, broken = _decisions(z_over_looks(len(sizes)), wins_at, sizes)
    assert kept <= allowed and broken <= allowed, (kept, broken)
    # Judged at a plain 95 % at every look, the same run is fooled several times as often.
    naive_kept, naive_broken = _decisions(Z95, wins_at, sizes)
    assert max(naive_kept, naive_broken) > allowed, (naive_kept, naive_broken)


def test_a_ladder_step_is_judged_once_on_the_games_at_the_end_of_a_sequential_run(
    findings: Findings,
) -> None:
    # t0 always goes to ash, t1 is a fair coin: t1 is plainly "harder" for ash's seat within a
    # few dozen paired games, but a step judged at every look at its full alpha would be fooled
    # as often as the looks add up; it is judged once, on all the games, so its tables play on.
    game = coin_game("ash", edge=1.0, tables=2)
    balance = Balance(policy="sensible", games=200, ladder=Ladder(("t0", "t1")))
    runs, players = balance_runs(game, object(), balance, seed=1, sequential=True, workers=1)
    assert {len(games) for games in runs.values()} == {200}
    [step] = check_balance(findings, balance, runs, players, {"t0": 5, "t1": 5})
    assert "needs < 0.05" in step.detail  # the ladder's own alpha, not shared among looks
