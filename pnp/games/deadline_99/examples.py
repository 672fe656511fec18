"""The tables the shared tests play and the worked examples the rulebook quotes, both computed
by the engine so that neither can drift from the rules."""

from __future__ import annotations

import dataclasses
import random

from pnp.engines.view import Pictured, player_name
from pnp.games.deadline_99.model import Deadline99, EffectKind
from pnp.games.deadline_99.rules import Deadline99Rules, Deadline99State, Mode, Play

Example = int | str | bool
"""One value a worked example quotes: a count, a card's label, whether its player is out."""


def example_tables(model: Deadline99) -> list[tuple[str, Deadline99Rules]]:
    """A few representative tables of the content, for the contract test and benchmarks."""
    smallest, largest = model.info.players.min, model.info.players.max
    camp = model.camp_mode.players.min
    return [
        (f"normal-{smallest}p", Deadline99Rules(model, smallest)),
        (f"normal-{largest}p", Deadline99Rules(model, largest)),
        (f"camp-{camp + 1}p", Deadline99Rules(model, camp + 1, Mode.CAMP)),
        (f"angel-death-{camp + 1}p", Deadline99Rules(model, camp + 1, angel_death=True)),
        (
            f"camp+angel-death-{camp + 1}p",
            Deadline99Rules(model, camp + 1, Mode.CAMP, angel_death=True),
        ),
    ]


def rulebook_examples(model: Deadline99) -> dict[str, dict[str, Example]]:
    """Worked examples for the rulebook, played out by this engine so prose cannot drift.

    Each example seats the smallest table, gives seat 0 a chosen hand at a chosen count and
    plays one card; the rulebook quotes the numbers from here.
    """
    rules = Deadline99Rules(model, model.info.players.min)
    start = rules.initial_state(random.Random(0))
    cap, floor = model.settings.count_cap, model.settings.count_floor
    suit = model.suits[0]
    adders = sorted(
        (r for r in model.ranks if r.effect.kind is EffectKind.ADD), key=lambda r: r.effect.amount
    )
    small, big = adders[0], adders[-1]
    by_kind = {r.effect.kind: r for r in model.ranks}

    def play(count: int, rank_id: str, sign: int = 0) -> tuple[Deadline99State, Deadline99State]:
        token = f"{rank_id}{suit.id[:1]}"
        hands = list(start.hands)
        others = tuple(c for c in start.hands[0] if rules.tokens[c] != token)[:2]
        hands[0] = tuple(sorted((rules._by_token[token], *others)))
        before = dataclasses.replace(start, hands=tuple(hands), count=count)
        return before, rules.apply(before, Play(token, sign))

    bust_count = cap - big.effect.amount + 1
    _, after_bust = play(bust_count, big.id)
    cap_rank = by_kind[EffectKind.SET_TO_CAP]
    _, after_cap = play(cap, cap_rank.id)
    swing = by_kind[EffectKind.ADD_OR_SUBTRACT]
    low = floor + swing.effect.amount // 2
    _, after_floor = play(low, swing.id, -1)
    return {
        "bust": {
            "count": bust_count,
            "card": big.label,
            "would_be": bust_count + big.effect.amount,
            "after": after_bust.count,
            "out": after_bust.out[0],
            "safe_card": small.label,
            "safe_after": bust_count + small.effect.amount,
        },
        "cap": {
            "count": cap,
            "card": cap_rank.label,
            "after": after_cap.count,
            "out": after_cap.out[0],
        },
        "floor": {
            "count": low,
            "card": swing.label,
            "amount": swing.effect.amount,
            "after": after_floor.count,
            "out": after_floor.out[0],
        },
    }


def rulebook_positions(model: Deadline99) -> dict[str, Pictured]:
    """Positions the rulebook draws through the table's view: the table as dealt at the
    smallest player count, and the count passing the cap (seat 0 holds the largest adder at
    the count where it busts, plays it and is out; the count stays)."""
    rules = Deadline99Rules(model, model.info.players.min)
    start = rules.initial_state(random.Random(0))
    cap = model.settings.count_cap
    big = max(
        (r for r in model.ranks if r.effect.kind is EffectKind.ADD), key=lambda r: r.effect.amount
    )
    token = f"{big.id}{model.suits[0].id[:1]}"
    hands = list(start.hands)
    others = tuple(c for c in start.hands[0] if rules.tokens[c] != token)[:2]
    hands[0] = tuple(sorted((rules._by_token[token], *others)))
    before = dataclasses.replace(start, hands=tuple(hands), count=cap - big.effect.amount + 1)
    action = Play(token, 0)
    after = rules.apply(before, action)
    hands_and_count = tuple(f"{player_name(seat)}'s" for seat in range(rules.players))
    return {
        "setup": Pictured(rules, (start,), areas=(*hands_and_count, "Draw pile", "Count")),
        "bust": Pictured(
            rules,
            (before, after),
            between=(action,),
            areas=(player_name(0), "Draw pile", "Count"),
            captions=(
                f"计数 {before.count}，打出 {big.label}",
                f"超过 {cap}：出局，计数仍为 {after.count}",
            ),
        ),
    }
