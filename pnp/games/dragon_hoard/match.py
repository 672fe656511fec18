"""Dragon Hoard matches of several games: the multi-game scoring of the post."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pnp.engines.base import Policy, play_game
from pnp.games.dragon_hoard.model import DragonHoard
from pnp.games.dragon_hoard.rules import ROUND_CAP, DragonHoardRules


@dataclass(frozen=True)
class MatchResult:
    """A match of several games: each game's scores and winner, and the match's totals."""

    games: tuple[tuple[tuple[int, ...], int | None], ...]
    """(scores by seat, winner or None) of each game."""
    totals: tuple[int, ...]
    """Scores summed over the games, each game's winner +win_bonus."""
    winners: frozenset[int]
    """Match winners: the highest total; ties go to most game wins; still tied: a draw."""


def score_match(
    games: Sequence[tuple[Sequence[int], int | None]], players: int, win_bonus: int
) -> MatchResult:
    """Multi-game scoring: add each game's scores, the game's winner gets `win_bonus` more;
    the highest total wins, ties broken by games won, still tied: every tied seat draws."""
    totals = [0] * players
    wins = [0] * players
    for scores, winner in games:
        for seat in range(players):
            totals[seat] += scores[seat]
        if winner is not None:
            totals[winner] += win_bonus
            wins[winner] += 1
    top = max(totals)
    tied = [s for s in range(players) if totals[s] == top]
    most = max(wins[s] for s in tied)
    winners = frozenset(s for s in tied if wins[s] == most)
    return MatchResult(
        games=tuple((tuple(scores), winner) for scores, winner in games),
        totals=tuple(totals),
        winners=winners,
    )


def sole_leader(scores: Sequence[int]) -> int | None:
    """The only seat with the top score of a game, if exactly one has it: the game's own
    scores, before the winner's bonus, so a tie at the top binds nobody even where leaving
    first broke it for the win (decision `sole-top-scorer`)."""
    top = max(scores)
    leaders = [s for s, v in enumerate(scores) if v == top]
    return leaders[0] if len(leaders) == 1 else None


def play_match(
    model: DragonHoard, players: int, games: int, rng: random.Random, policy: Policy
) -> MatchResult:
    """Play a match: after each game the sole top scorer must hold
    ``settings.leader_min_treasures`` treasures to leave the lair in the next one."""
    must_hold = [0] * players
    results: list[tuple[tuple[int, ...], int | None]] = []
    for _ in range(games):
        rules = DragonHoardRules(model, players, must_hold=must_hold)
        record = play_game(rules, [policy] * players, rng, ROUND_CAP * 100, max_turns=ROUND_CAP)
        state = record.final_state
        scores = rules.scores(state)
        winner = rules.winner(state) if not record.capped else None
        results.append((scores, winner))
        leader = sole_leader(scores)
        must_hold = [0] * players
        if leader is not None:
            must_hold[leader] = model.settings.leader_min_treasures
    return score_match(results, players, model.settings.win_bonus)
