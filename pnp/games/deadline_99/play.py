"""What the shared play checks (pnp.validate.play) need of Deadline 99: every table the content
supports, the factors balance is broken down by, the coverage items with where content defines
each, and how the search player scores an unfinished position."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from pnp.engines.base import Rules, Table
from pnp.errors import Location
from pnp.games.deadline_99.model import Camp, Deadline99, EffectKind, Role
from pnp.games.deadline_99.rules import (
    Deadline99Rules,
    Deadline99State,
    Draw,
    Mode,
    Play,
    Termination,
)
from pnp.registry import SearchSettings

SEARCH = SearchSettings(
    iterations=64, rollout="sensible", depth=8, method="halving", candidates=8, margin=0.5
)
"""The strong player: the sensible policy improved by 64 shared playouts a decision (each
played on by the sensible policy for 8 decisions, then scored by :func:`evaluate`: a full
playout at twelve players is some 250 turns). A card's edge over the sensible one is a few
points of win share, which a tree search spreading 200 playouts over a dozen actions could not
see (it won 39 % against the sensible policy's 37 %, p = 0.32); compared on the same playouts
and kept only when half a standard error ahead, it wins 41 % against 33 % (normal-3p, 400
paired games, seed 1, p = 0.011), about as often as with 200 playouts (42 % against 33 %,
p = 0.003) at a third of the CPU. Measure it with ``pnp simulate deadline-99 --duel``."""

TURN_CAP = 5_000
"""A table's turn cap in the play checks. A sensible or random game lasts tens of turns (a few
hundred at most at twelve players); a cap hit means a stuck policy or an engine bug."""


def table_name(mode: Mode, angel_death: bool, players: int) -> str:
    """``normal-5p``, ``angel-death-5p``, ``camp-5p``, ``camp+angel-death-5p``."""
    if mode is Mode.NORMAL:
        label = "angel-death" if angel_death else "normal"
    else:
        label = "camp+angel-death" if angel_death else "camp"
    return f"{label}-{players}p"


def play_tables(model: Deadline99) -> list[Table]:
    """Every table the content supports: each player count, normal and camp mode, each with
    and without Angel and Death (decision camp-with-angel-death)."""
    tables: list[Table] = []
    for mode in Mode:
        for angel_death in (False, True):
            players_range = model.info.players if mode is Mode.NORMAL else model.camp_mode.players
            for players in players_range:
                if players not in model.info.players:
                    continue
                rules = Deadline99Rules(model, players, mode, angel_death)
                # Each turn is one play, at most one steal and its draws.
                steps = TURN_CAP * (2 + max(rules._draws, default=1))
                tables.append(Table(table_name(mode, angel_death, players), rules, steps, TURN_CAP))
    return tables


def seat_factors(rules: Rules[Any, Any], state: Deadline99State) -> Mapping[str, Sequence[str]]:
    """Normal mode: ``order``, each seat's place in the first round (seat 0 plays first; every
    seat should win 1/n), and ``half``, whether it plays in the first half of that round or the
    second (a bias by seat number shows there first, pooled over half the table). Camp mode:
    ``camp`` (red, black, free) and ``identity``."""
    assert isinstance(rules, Deadline99Rules)
    if rules.mode is Mode.NORMAL:
        players = rules.players
        return {
            "order": tuple(str(seat) for seat in range(players)),
            "half": tuple("first" if 2 * seat < players else "second" for seat in range(players)),
        }
    identities = [rules._identities[ident] for ident in state.identities]
    return {
        "camp": tuple(identity.camp.value for identity in identities),
        "identity": tuple(identity.id for identity in identities),
    }


def game_factors(rules: Rules[Any, Any], state: Deadline99State) -> Mapping[str, str]:
    """The table's mode, for reports that pool tables."""
    assert isinstance(rules, Deadline99Rules)
    return {"mode": table_name(rules.mode, rules.angel_death, rules.players).rsplit("-", 1)[0]}


# -- coverage -------------------------------------------------------------------------------

RULE_ITEMS = {
    "rule:count-floor": "count-floor",
    "rule:bust-card-discarded": "bust-card-discarded",
    "rule:ace-may-choose-self": "ace-may-choose-self",
    "rule:reshuffle-when-drawing": "reshuffle-when-drawing",
    "rule:any-card-may-be-played": "any-card-may-be-played",
    "rule:angel-draws-in-all": "angel-draws-in-all",
    "rule:camp-with-angel-death": "camp-with-angel-death",
}
"""Coverage items that exercise a decision of content (located at the decision)."""


def card_items(model: Deadline99) -> list[tuple[str, Location]]:
    """``card:<rank>-<suit>`` for every playing card, then ``card:<id>`` for the variant cards,
    in the engine's card-code order."""
    items = [(f"card:{card.id}", card.where) for card in model.playing_cards]
    return items + [(f"card:{card.id}", card.where) for card in model.variant_cards]


def coverage_items(model: Deadline99) -> dict[str, Location]:
    """Every card, effect kind, choice, decided rule, identity and ending play must exercise."""
    items: dict[str, Location] = dict(card_items(model))
    for effect in [rank.effect for rank in model.ranks] + [c.effect for c in model.variant_cards]:
        items.setdefault(f"effect:{effect.kind.value}", effect.where)
    for rank in model.ranks:
        if rank.effect.kind is EffectKind.ADD_OR_SUBTRACT:
            items.setdefault("choice:add", rank.effect.where)
            items.setdefault("choice:subtract", rank.effect.where)
    decisions = {decision.id: decision.where for decision in model.decisions}
    for item, decision in RULE_ITEMS.items():
        if decision in decisions:
            items[item] = decisions[decision]
    items["rule:no-cards-out"] = model.settings.where
    for identity in model.camp_mode.identities:
        items[f"identity:{identity.id}"] = identity.where
    items["ending:last_standing"] = model.info.where
    items["ending:king_out"] = model.camp_mode.where
    return items


@lru_cache(maxsize=128)
def _card_names(rules: Deadline99Rules) -> tuple[str, ...]:
    return tuple(name for name, _ in card_items(rules.model))


def covered(
    rules: Rules[Any, Any], before: Deadline99State, action: Any, after: Deadline99State
) -> Iterable[str]:
    """The coverage items one step exercised."""
    assert isinstance(rules, Deadline99Rules)
    found: list[str] = []
    seat = before.seat
    # A player who starts a turn with no cards is out (anyone but the one who acted). Most
    # steps put nobody out: the tuples compare equal before the seats are looked at one by one.
    if after.out != before.out and any(
        after.out[s] and not before.out[s] for s in range(rules.players) if s != seat
    ):
        found.append("rule:no-cards-out")
    if after.ended is not None:
        found.extend(_ending(rules, after))
    if type(action) is Draw:
        if len(after.draw_pile) + 1 > len(before.draw_pile) and before.discard:
            found.append("rule:reshuffle-when-drawing")
        return found
    if type(action) is not Play:
        return found
    c = rules._by_token[action.card]
    kind = rules._kind[c]
    found.append(_card_names(rules)[c])
    found.append(f"effect:{kind.value}")
    busts = rules.eliminates(before, action)
    if kind is EffectKind.ADD_OR_SUBTRACT:
        found.append("choice:add" if action.sign > 0 else "choice:subtract")
        if action.sign < 0 and before.count - rules._amount[c] < rules.floor:
            found.append("rule:count-floor")
    elif kind is EffectKind.CHOOSE_NEXT and action.target == seat:
        found.append("rule:ace-may-choose-self")
    elif kind is EffectKind.BONUS_DRAW:
        found.append("rule:angel-draws-in-all")
    elif kind is EffectKind.ELIMINATE_SELF and rules.mode is Mode.CAMP:
        found.append("rule:camp-with-angel-death")
    if busts and kind is not EffectKind.ELIMINATE_SELF:
        found.append("rule:bust-card-discarded")
        safe = [
            other
            for other in rules.legal_actions(before)
            if isinstance(other, Play) and not rules.eliminates(before, other)
        ]
        if safe:
            found.append("rule:any-card-may-be-played")
    return found


def _ending(rules: Deadline99Rules, state: Deadline99State) -> list[str]:
    assert state.ended is not None
    found = [f"ending:{state.ended.value}"]
    winners = rules.outcome(state).winners
    found.extend(f"identity:{state.identities[seat]}" for seat in winners if state.identities)
    if state.ended is Termination.KING_OUT:
        for seat, ident in enumerate(state.identities):
            if state.out[seat] and rules._identities[ident].role is Role.KING:
                found.append(f"identity:{ident}")  # the fallen king was played too
    return found


def evaluate(rules: Rules[Any, Any], state: Deadline99State) -> list[float]:
    """A hint for the search player where a playout stops. A card in hand is a turn survived,
    a card that never busts most of all. Normal mode: the living share the win in proportion
    to 1 + cards + 2 x lifesavers held. Camp mode: a camp wins when the other king falls first,
    judged the same way from the two kings' hands; a living free agent is likely to win."""
    assert isinstance(rules, Deadline99Rules)
    kinds = rules._kind
    strength = [
        0.0
        if out
        else 1.0 + len(hand) + LIFESAVER_WEIGHT * sum(kinds[c] in LIFESAVERS for c in hand)
        for hand, out in zip(state.hands, state.out, strict=True)
    ]
    if not state.identities:
        total = sum(strength) or 1.0
        return [value / total for value in strength]
    identities = [rules._identities[ident] for ident in state.identities]
    kings = {
        identity.camp: strength[seat]
        for seat, identity in enumerate(identities)
        if identity.role is Role.KING
    }
    red, black = kings.get(Camp.RED, 0.0), kings.get(Camp.BLACK, 0.0)
    red_wins = red / (red + black) if red + black else 0.5
    scores = []
    for seat, identity in enumerate(identities):
        if identity.camp is Camp.RED:
            scores.append(red_wins)
        elif identity.camp is Camp.BLACK:
            scores.append(1.0 - red_wins)
        else:
            scores.append(FREE_AGENT_HOPE if strength[seat] else 0.0)
    return scores


LIFESAVERS = frozenset(
    {
        EffectKind.ADD_OR_SUBTRACT,
        EffectKind.SET_TO_CAP,
        EffectKind.CHOOSE_NEXT,
        EffectKind.REVERSE,
        EffectKind.STEAL_RANDOM,
        EffectKind.SWAP_HANDS,
        EffectKind.BONUS_DRAW,
    }
)
"""Cards that never bust: a hand of them survives any count."""
LIFESAVER_WEIGHT = 2.0
"""How much more a lifesaver counts towards a player's chances than a number card."""

FREE_AGENT_HOPE = 0.6
"""A living free agent's score in an unfinished camp game (they win about two games in three
when they are alive at a king's fall; see the balance report)."""
