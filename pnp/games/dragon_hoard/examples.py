"""Dragon Hoard's example tables and the worked examples its rulebook prints."""

from __future__ import annotations

import random
from typing import Any

from pnp.engines.piles import without as _remove
from pnp.engines.view import Pictured, first_pictured
from pnp.games.dragon_hoard.actions import UseTreasure
from pnp.games.dragon_hoard.model import (
    AI,
    ActionKind,
    AICard,
    DragonHoard,
    Phase,
    SpeedKind,
    resolution_order,
)
from pnp.games.dragon_hoard.policies import TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import Stage, Status, _copy, _set


def example_tables(model: DragonHoard) -> list[tuple[str, DragonHoardRules]]:
    """Tables the shared contract test plays: every supported player count."""
    return [(f"{p}p", DragonHoardRules(model, p)) for p in model.info.players]


def _example_table(model: DragonHoard) -> int:
    """The table the speed examples seat: the smallest with three seats or more where some
    ☆×N gives a fraction (so the rounding decision shows), else the largest."""
    fractional = [
        p
        for p in model.info.players
        if p >= 3 and any((p * n).denominator != 1 for n in model.star_multipliers)
    ]
    return fractional[0] if fractional else model.info.players.max


def rulebook_examples(model: DragonHoard) -> dict[str, dict[str, Any]]:
    """Worked examples for the rulebook, computed here so prose cannot drift from the rules.

    ``speed``: one round's placed player cards (the first player to place walks out of the lair
    with their first card, so their second card is cancelled, yet still counted) and where an
    AI card of each speed-marker kind falls among them, by
    :func:`pnp.games.dragon_hoard.model.resolution_order` with the content's ☆ rounding. The leaving
    and the cancelling are played out by this engine.
    """
    players = _example_table(model)
    rules = DragonHoardRules(model, players)
    colours = model.player_colours
    placeable = [card for card in model.action_cards if Phase.PLACEMENT in card.phases]
    moves = [card for card in placeable if card.kind is ActionKind.MOVE]
    others = [card for card in placeable if card.kind is not ActionKind.MOVE] or placeable

    # The leaver stands next to an exit; a move card pointing at it takes them out.
    body = rules.body(rules.centre)
    start, out_card = rules.entries[2 % players], moves[0]
    for exit_cell in sorted(rules.exits):
        for card in moves:
            assert card.direction is not None
            dx, dy = card.direction.step
            cell = (exit_cell[0] - dx, exit_cell[1] - dy)
            if model.lair.contains(cell) and cell not in body and cell not in rules.exits:
                start, out_card = cell, card
                break
        else:
            continue
        break
    leaver, holder, third = 2 % players, 0, 1 % players
    later = next((card for card in moves if card is not out_card), out_card)
    sequence = [
        (leaver, out_card),
        (holder, later),
        (leaver, next((c for c in moves if c not in (out_card, later)), later)),
        (third, others[0]),
    ]
    cancelled_at = 3  # the leaver's second card, counted from 1

    # Play the round out with the engine: the AI card last, so only the players act first.
    slowest = next(
        (
            c
            for c, marker in enumerate(rules.ai_markers)
            if marker.wanted(players, rules.rounding) is None
        ),
        0,
    )
    state = _copy(rules.initial_state(random.Random(0)))
    state.stage = Stage.PLACEMENT
    state.pawns = _set(state.pawns, leaver, start)
    state.placed = tuple((seat, rules._card_by_id[card.id]) for seat, card in sequence)
    state.deck = _remove(state.deck, slowest)
    state.current = slowest
    rules._resolve(state)
    left = state.status[leaver] is Status.LEFT and leaver in state.left_order

    def label(index: int) -> str:
        seat, card = sequence[index]
        return f"{colours[seat].name}「{card.name}」"

    labels = [label(i) for i in range(len(sequence))]

    def place(card: AICard, cards: int | None = None) -> dict[str, Any]:
        marker = card.marker
        placed = list(range(len(sequence) if cards is None else cards))
        order = resolution_order(marker, placed, players, model.settings.star_rounding)
        after = order.index(AI)
        steps = [f"【{card.name}】" if item == AI else labels[int(item)] for item in order]
        return {
            "card": card.name,
            "symbol": marker.symbol,
            "wanted": marker.wanted(players, model.settings.star_rounding),
            "n": str(marker.n),
            # players × N before rounding, as a decimal (3 × 1/2 → "1.5")
            "exact": f"{float(players * marker.n):g}" if marker.kind is SpeedKind.STAR else None,
            "placed": len(placed),
            "after": after,
            "order": " → ".join(steps),
        }

    zero = model.ai_cards_with("0")
    infinity = model.ai_cards_with("∞")
    stars = sorted(model.ai_cards_with("☆"), key=lambda card: card.marker.n)
    numbers = sorted(model.ai_cards_with("n"), key=lambda card: card.marker.n)
    # A number card reached before the cancelled card, and the largest number for the case of
    # too few cards (the round cut short when the deck's numbers are all small).
    reached = next(
        (c for c in reversed(numbers) if c.marker.n < cancelled_at), numbers[0] if numbers else None
    )
    fewest = numbers[-1] if numbers else None
    fewer_cards = None if fewest is None else min(len(sequence), int(fewest.marker.n) - 1)
    return {
        "speed": {
            "players": players,
            "holder": colours[holder].name,
            "leaver": colours[leaver].name,
            "left": left,
            "cancelled_at": cancelled_at,
            "cancelled": labels[cancelled_at - 1],
            "placed": labels,
            "count": len(sequence),
            "zero": place(zero[0]) if zero else None,
            "infinity": place(infinity[0]) if infinity else None,
            "stars": [place(card) for card in stars],
            "number": place(reached) if reached is not None else None,
            "fewer": place(fewest, fewer_cards) if fewest is not None else None,
        }
    }


def rulebook_positions(model: DragonHoard) -> dict[str, Pictured]:
    """Positions the rulebook draws, each the first such step of a seeded game the treasure
    hunter policy plays at the smallest table: the lair at setup; the dragon moving; a pawn
    ending its move on a teleport gate and coming out at the other gate of its type."""
    rules = DragonHoardRules(model, min(model.info.players))
    policy = TreasureHunterPolicy()
    start = rules.initial_state(random.Random(0))
    gates = {tuple(gate.cell) for gate in model.lair.gates}

    def dragon_moved(before: Any, action: Any, after: Any) -> bool:
        return bool(after.dragon != before.dragon)

    def teleported(before: Any, action: Any, after: Any) -> bool:
        # A move that ends on a gate, not a treasure's teleport to a gate of one's choice.
        return not isinstance(action, UseTreasure) and any(
            b is not None
            and a is not None
            and b != a
            and tuple(a) in gates
            and max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 3
            for b, a in zip(before.pawns, after.pawns, strict=True)
        )

    found: dict[str, Pictured] = {"setup": Pictured(rules, (start,))}
    wanted = {
        "dragon": (dragon_moved, ("巨龙移动之前", "巨龙移动之后")),
        "portal": (teleported, ("停上传送门之前", "从另一座同型传送门出来")),
    }
    for name, (test, captions) in wanted.items():
        pictured = first_pictured(rules, policy, test, captions, seeds=30, limit=3_000)
        if pictured is not None:
            found[name] = pictured
    return found
