"""The generic search player: it finds what a random player misses, never peeks at hidden
information it could not know, and plays the same game from the same seed."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any

import pytest

from pnp.engines.base import Declaration, Outcome, RandomPolicy, play_game
from pnp.engines.search import HalvingSearchPolicy, SearchPolicy, terminal_scores
from pnp.errors import IllegalActionError


class End(enum.Enum):
    LAST_STONE = "last_stone"


@dataclass(frozen=True)
class Nim:
    stones: int
    seat: int


class NimRules:
    """Take 1, 2 or 3 stones; whoever takes the last stone wins. From a multiple of four the
    player to move loses against perfect play."""

    num_players = 2

    def __init__(self, stones: int = 10) -> None:
        self.stones = stones

    def initial_state(self, rng: random.Random) -> Nim:
        return Nim(self.stones, 0)

    def current_player(self, state: Nim) -> int | None:
        return None if state.stones == 0 else state.seat

    def is_chance(self, state: Nim) -> bool:
        return False

    def legal_actions(self, state: Nim) -> list[int]:
        return [n for n in (1, 2, 3) if n <= state.stones]

    def chance_outcomes(self, state: Nim) -> list[tuple[int, float]]:
        return []

    def sample_chance(self, state: Nim, rng: random.Random) -> int:
        raise ValueError("no chance in nim")

    def apply(self, state: Nim, action: int) -> Nim:
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"illegal action {action!r} in {self.notation(state)}")
        return Nim(state.stones - action, 1 - state.seat)

    def is_terminal(self, state: Nim) -> bool:
        return state.stones == 0

    def outcome(self, state: Nim) -> Outcome:
        if state.stones:
            raise ValueError(f"game not over: {self.notation(state)}")
        return Outcome(frozenset({1 - state.seat}), End.LAST_STONE)

    def turns(self, state: Nim) -> int:
        return self.stones - state.stones

    def notation(self, state: Nim) -> str:
        return f"{state.stones} {state.seat}"

    def from_notation(self, text: str) -> Nim:
        stones, seat = text.split()
        return Nim(int(stones), int(seat))

    def parse_action(self, text: str) -> int:
        return int(text)

    def declares(self) -> Declaration:
        return Declaration("nim", frozenset(), frozenset(), frozenset())


def test_search_finds_the_winning_move() -> None:
    rules = NimRules()
    search = SearchPolicy(iterations=300)
    for stones, best in ((5, 1), (6, 2), (7, 3), (9, 1)):
        assert search.choose(rules, Nim(stones, 0), random.Random(stones)) == best


def test_search_beats_random_play() -> None:
    rules = NimRules(stones=15)
    wins = 0
    for seed in range(20):
        seat = seed % 2  # the searcher plays both seats in turn
        policies = [RandomPolicy(), RandomPolicy()]
        policies[seat] = SearchPolicy(iterations=150)  # type: ignore[call-overload]
        record = play_game(rules, policies, random.Random(seed), 1000)
        assert record.outcome is not None
        wins += seat in record.outcome.winners
    assert wins >= 18


def test_the_same_seed_plays_the_same_game() -> None:
    rules = NimRules(stones=21)
    games = [
        play_game(
            rules, [SearchPolicy(iterations=40)] * 2, random.Random(5), 1000, record_actions=True
        )
        for _ in range(2)
    ]
    assert games[0].actions == games[1].actions


@dataclass(frozen=True)
class Guess:
    secret: int
    guess: int | None


class GuessRules(NimRules):
    """Seat 0 guesses a secret bit dealt face down: winning needs the hidden card, which a
    player that peeks would always match and a fair one matches half the time."""

    num_players = 1

    def initial_state(self, rng: random.Random) -> Guess:  # type: ignore[override]
        return Guess(rng.randrange(2), None)

    def current_player(self, state: Guess) -> int | None:  # type: ignore[override]
        return None if state.guess is not None else 0

    def legal_actions(self, state: Guess) -> list[int]:  # type: ignore[override]
        return [] if state.guess is not None else [0, 1]

    def apply(self, state: Guess, action: int) -> Guess:  # type: ignore[override]
        return Guess(state.secret, action)

    def is_terminal(self, state: Guess) -> bool:  # type: ignore[override]
        return state.guess is not None

    def outcome(self, state: Guess) -> Outcome:  # type: ignore[override]
        return Outcome(
            frozenset({0}) if state.guess == state.secret else frozenset(), End.LAST_STONE
        )

    def turns(self, state: Guess) -> int:  # type: ignore[override]
        return int(state.guess is not None)

    def resample(self, state: Guess, seat: int, rng: random.Random) -> Guess:
        return Guess(rng.randrange(2), state.guess)


def test_search_never_peeks_at_hidden_information() -> None:
    rules = GuessRules()
    search = SearchPolicy(iterations=64)
    wins = sum(
        play_game(rules, [search], random.Random(seed), 10).outcome.winners == {0}  # type: ignore[union-attr]
        for seed in range(200)
    )
    assert 70 <= wins <= 130  # a fair coin; a peeking player would win all 200


def test_terminal_scores_share_a_win() -> None:
    rules = NimRules(stones=1)
    assert terminal_scores(rules, Nim(0, 1)) == [1.0, 0.0]


class TakeOne:
    """A poor base policy: always take one stone."""

    def choose(self, rules: NimRules, state: Nim, rng: random.Random) -> int:
        return 1


def test_halving_improves_on_its_base_policy() -> None:
    rules = NimRules(stones=15)
    strong = HalvingSearchPolicy(iterations=48, rollout=TakeOne())

    def wins(player: object) -> int:
        won = 0
        for seed in range(40):
            seat = seed % 2
            policies: list[object] = [RandomPolicy(), RandomPolicy()]
            policies[seat] = player
            record = play_game(rules, policies, random.Random(seed), 1000)  # type: ignore[arg-type]
            assert record.outcome is not None
            won += seat in record.outcome.winners
        return won

    # Taking one every turn wins by parity luck; playing on with it from each root action
    # finds the moves that leave the opponent a multiple of four.
    assert wins(strong) >= wins(TakeOne()) + 10


def test_halving_keeps_the_base_choice_when_no_action_is_better() -> None:
    rules = GuessRules()
    strong = HalvingSearchPolicy(iterations=32, rollout=TakeOne(), margin=2.0)
    kept = sum(
        strong.choose(rules, Guess(seed % 2, None), random.Random(seed)) == 1 for seed in range(200)
    )
    assert kept >= 180  # both guesses win half the time: noise must not move it off its base


def test_halving_never_peeks_at_hidden_information() -> None:
    rules = GuessRules()
    strong = HalvingSearchPolicy(iterations=32, margin=0.0)
    wins = sum(
        play_game(rules, [strong], random.Random(seed), 10).outcome.winners == {0}  # type: ignore[union-attr]
        for seed in range(200)
    )
    assert 70 <= wins <= 130


def test_halving_plays_the_same_game_from_the_same_seed() -> None:
    rules = NimRules(stones=21)
    strong = HalvingSearchPolicy(iterations=24)
    games = [
        play_game(rules, [strong] * 2, random.Random(9), 1000, record_actions=True)
        for _ in range(2)
    ]
    assert games[0].actions == games[1].actions


def _choices_and_draws(strong: HalvingSearchPolicy, rules: NimRules) -> list[tuple[int, int]]:
    """Each position's choice and the next number the shared generator gives after it."""
    found = []
    for stones in range(2, 15):
        rng = random.Random(stones)
        found.append((strong.choose(rules, Nim(stones, stones % 2), rng), rng.getrandbits(32)))
    return found


def test_a_budget_that_cannot_replace_the_anchor_plays_no_playout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Up to three playouts a decision (Nim has three moves) give no action two paired
    samples: the anchor is chosen, with the same random draws as when the playouts are
    played. Six give the survivor of the first round a second sample: they are played."""
    rules = NimRules(stones=15)
    played: list[int] = []
    sample = HalvingSearchPolicy._sample

    def counted(self: HalvingSearchPolicy, *args: Any) -> float:
        played.append(1)
        return sample(self, *args)

    monkeypatch.setattr(HalvingSearchPolicy, "_sample", counted)
    for budget in (1, 2, 3, 6):
        strong = HalvingSearchPolicy(iterations=budget, rollout=RandomPolicy())
        played.clear()
        skipping = _choices_and_draws(strong, rules)
        skipped = not played
        monkeypatch.setattr(HalvingSearchPolicy, "_anchor_is_certain", lambda *_: False)
        assert _choices_and_draws(strong, rules) == skipping, budget
        assert played  # the playouts were played this time
        monkeypatch.undo()
        monkeypatch.setattr(HalvingSearchPolicy, "_sample", counted)
        assert skipped == (budget <= 3), budget


class CoinRules(GuessRules):
    """Eight guesses, and the face-down coin alone decides the game: no guess is better than
    another, so a search learns nothing from playouts beyond the first few."""

    def legal_actions(self, state: Guess) -> list[int]:  # type: ignore[override]
        return [] if state.guess is not None else list(range(8))

    def outcome(self, state: Guess) -> Outcome:  # type: ignore[override]
        return Outcome(frozenset({0}) if state.secret else frozenset(), End.LAST_STONE)


def test_halving_stops_a_decision_no_challenger_gains_on(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    sample = HalvingSearchPolicy._sample

    def counted(self: HalvingSearchPolicy, *args: Any) -> float:
        played.append(1)
        return sample(self, *args)

    monkeypatch.setattr(HalvingSearchPolicy, "_sample", counted)
    spent = {}
    for stop_early in (True, False):
        strong = HalvingSearchPolicy(iterations=32, rollout=TakeOne(), stop_early=stop_early)
        played.clear()
        choices = {
            strong.choose(CoinRules(), Guess(1, None), random.Random(seed)) for seed in range(5)
        }
        assert choices == {1}  # the base policy's guess stands either way
        spent[stop_early] = len(played) / 5
    # Eight guesses: one playout each, then four survivors three each, and no gain on the
    # anchor in four shared playouts: 20 of the 32 a decision.
    assert spent == {True: 20, False: 32}


class CoinPairRules(CoinRules):
    """Two guesses, neither better: a choice between two actions."""

    def legal_actions(self, state: Guess) -> list[int]:  # type: ignore[override]
        return [] if state.guess is not None else [0, 1]


def test_halving_looks_early_into_a_choice_between_two(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    sample = HalvingSearchPolicy._sample

    def counted(self: HalvingSearchPolicy, *args: Any) -> float:
        played.append(1)
        return sample(self, *args)

    monkeypatch.setattr(HalvingSearchPolicy, "_sample", counted)
    spent = {}
    for look_early in (True, False):
        strong = HalvingSearchPolicy(iterations=32, rollout=TakeOne(), look_early=look_early)
        played.clear()
        choices = {
            strong.choose(CoinPairRules(), Guess(1, None), random.Random(seed)) for seed in range(5)
        }
        assert choices == {1}  # the base policy's guess stands either way
        spent[look_early] = len(played) / 5
    # Two guesses share one round of 16 playouts each, unless the search looks after four.
    assert spent == {True: 8, False: 32}


def test_halving_deals_the_hidden_cards_once_a_shared_playout() -> None:
    """Every action of a round is played from the same determinisation, so the hidden cards
    are dealt once a shared playout, not once an action: 32 playouts over eight guesses
    (one, three, then six shared playouts as the field halves) deal ten times."""

    class CountingCoin(CoinRules):
        dealt = 0

        def resample(self, state: Guess, seat: int, rng: random.Random) -> Guess:
            CountingCoin.dealt += 1
            return super().resample(state, seat, rng)

    strong = HalvingSearchPolicy(iterations=32, rollout=TakeOne(), stop_early=False)
    assert strong.choose(CountingCoin(), Guess(1, None), random.Random(0)) == 1
    assert CountingCoin.dealt == 1 + 3 + 6


def test_halving_plays_the_budget_set_for_the_table_s_player_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played: list[int] = []
    sample = HalvingSearchPolicy._sample

    def counted(self: HalvingSearchPolicy, *args: Any) -> float:
        played.append(1)
        return sample(self, *args)

    monkeypatch.setattr(HalvingSearchPolicy, "_sample", counted)
    spent = {}
    for at in ({1: 16}, {2: 16}):
        strong = HalvingSearchPolicy(
            iterations=32, rollout=TakeOne(), stop_early=False, iterations_at=at
        )
        played.clear()
        strong.choose(CoinRules(), Guess(1, None), random.Random(0))
        spent[min(at)] = len(played)
    # Coin is a solo game: its own count's budget holds; another count's leaves it 32.
    assert spent == {1: 16, 2: 32}
